/*
 * record.c - the results database: one SQLite file per invocation, one
 * transaction per run.
 *
 * The file keeps SQLite's default rollback journal, not WAL: a WAL database
 * is three files until the last connection checkpoints, and results are
 * copied around (cluster jobs, `netsim merge`) as single files. With a
 * rollback journal a killed process leaves a hot journal beside the file;
 * the next connection rolls it back, so a half-written run vanishes.
 *
 * Every insert uses a statement prepared once in rec_open(): interval and
 * series rows are written many times per run, and re-parsing SQL for each
 * would cost more than the insert itself. Inside the run's transaction an
 * insert touches only the page cache; the disk is written at COMMIT.
 */
#include "sim/out/record.h"

#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Another process holding the file (a reader in `merge`, another `netsim
 * run` copying its run in) is waited for this long before giving up.
 * NETSIM_BUSY_TIMEOUT_MS overrides it, so that tests can make a lock
 * outlast it in well under a second. */
#define REC_BUSY_TIMEOUT_MS 10000

enum rec_stmt {
    ST_BEGIN,
    ST_COMMIT,
    ST_ROLLBACK,
    ST_RUN_INSERT,
    ST_RUN_END,
    ST_PARAM,
    ST_INTERVAL,
    ST_SERIES,
    ST_COUNTER,
    ST_PROFILE,
    ST_COUNTERS,                 /* COUNTER_BATCH rows at once */
    ST_COUNT
};

/* Counters come by the thousand at the end of a run (38 a TCP flow), and
 * an insert statement costs as much again as its row: they are inserted
 * COUNTER_BATCH to a statement, in order, so their rowids are the same. */
#define COUNTER_BATCH 64

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
};

struct rec {
    sqlite3 *db;
    struct {
        int64_t value;
        int is_drop;
        size_t name;             /* offset in names */
    } pend[COUNTER_BATCH];       /* counters of the open run not yet inserted */
    int npend;
    char *names;
    size_t names_len, names_cap;
    char *path;                  /* for messages */
    char *name;                  /* what SQLite opens, and ATTACH names */
    sqlite3_stmt *st[ST_COUNT];
    int64_t run_id;              /* -1 when no run is open */
    struct timespec run_t0;      /* monotonic clock at rec_run_begin */
    char errmsg[512];
};

/* ------------------------------------------------------------------ */
/* Errors                                                               */

static void set_err(struct rec *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void set_err(struct rec *r, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(r->errmsg, sizeof r->errmsg, "%s: ", r->path);
    if (n < 0 || (size_t)n >= sizeof r->errmsg)
        return;
    va_start(ap, fmt);
    vsnprintf(r->errmsg + n, sizeof r->errmsg - (size_t)n, fmt, ap);
    va_end(ap);
}

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
    char *buf = strdup(path);
    char *p;

    *dir_out = NULL;
    if (!buf)
        return -1;
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

static void rec_free(struct rec *r)
{
    int i;

    for (i = 0; i < ST_COUNT; i++)
        sqlite3_finalize(r->st[i]);
    sqlite3_close(r->db);
    free(r->names);
    free(r->path);
    free(r->name);
    free(r);
}

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
    int i, rc;

    *err = NULL;
    r = calloc(1, sizeof *r);
    if (!r || !(r->path = strdup(path)) ||
        asprintf(&r->name, "%s%s", !uri && !strncmp(path, "file:", 5) ? "./" : "", uri ? uri : path) < 0) {
        if (r)
            free(r->path);
        free(r);
        *err = rec_open_err(path, "out of memory");
        return NULL;
    }
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

    for (i = 0; i < ST_COUNT; i++) {
        char batch[64 + 22 * COUNTER_BATCH];
        const char *sql = stmt_sql[i];
        if (i == ST_COUNTERS) {
            int n = snprintf(batch, sizeof batch, "INSERT INTO counter(run_id, name, value, is_drop) VALUES");
            for (int k = 0; k < COUNTER_BATCH; k++)
                n += snprintf(batch + n, sizeof batch - (size_t)n, "%s(?1,?%d,?%d,?%d)", k ? "," : "", 3 * k + 2,
                              3 * k + 3, 3 * k + 4);
            sql = batch;
        }
        if (sqlite3_prepare_v3(r->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &r->st[i], NULL) != SQLITE_OK) {
            *err = rec_open_err(path, "%s", sqlite3_errmsg(r->db));
            goto fail;
        }
    }
    return r;

fail:
    if (!*err)
        *err = rec_open_err(path, "out of memory");
    rec_free(r);
    return NULL;
}

static struct rec *open_file(const char *path, unsigned flags, char **err)
{
    struct stat sb;
    bool existed = stat(path, &sb) == 0;
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
    /* memdb stops at 1 GiB by default; let a run's rows take what memory
     * there is (they stay in memory until they are copied out). */
    sqlite3_int64 limit = (sqlite3_int64)1 << 40;
    if (r)
        sqlite3_file_control(r->db, "main", SQLITE_FCNTL_SIZE_LIMIT, &limit);
    return r;
}

/* ------------------------------------------------------------------ */
/* Statements                                                           */

/*
 * Steps a bound insert/update/transaction statement to completion and
 * resets it. On failure keeps the message (what: which statement) and, if
 * SQLite rolled the whole transaction back (disk full, I/O error), forgets
 * the open run: nothing of it is left to commit.
 */
static int step(struct rec *r, enum rec_stmt which, const char *what)
{
    sqlite3_stmt *st = r->st[which];
    int rc = sqlite3_step(st);

    if (rc == SQLITE_DONE) {
        sqlite3_reset(st);
        return 0;
    }
    set_err(r, "%s: %s", what, sqlite3_errmsg(r->db));
    sqlite3_reset(st);
    if (r->run_id >= 0 && sqlite3_get_autocommit(r->db))
        r->run_id = -1;
    return -1;
}

/* Strings are bound SQLITE_STATIC: every statement is stepped and reset
 * before the caller's strings can go away. NULL binds SQL NULL. */
static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}

/* Abandons the open transaction, if SQLite has not already done so. */
static void rollback(struct rec *r)
{
    if (!sqlite3_get_autocommit(r->db)) {
        sqlite3_step(r->st[ST_ROLLBACK]);
        sqlite3_reset(r->st[ST_ROLLBACK]);
    }
}

static int need_run(struct rec *r, const char *what)
{
    if (r->run_id >= 0)
        return 0;
    set_err(r, "%s: no run in progress", what);
    return -1;
}

static int need_no_run(struct rec *r, const char *what)
{
    if (r->run_id < 0)
        return 0;
    set_err(r, "%s: run %lld is still in progress", what, (long long)r->run_id);
    return -1;
}

static double elapsed_since(const struct timespec *t0)
{
    struct timespec now;

    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* ------------------------------------------------------------------ */
/* Runs                                                                 */

int64_t rec_run_begin(struct rec *r, const struct rec_run_info *info)
{
    sqlite3_stmt *st = r->st[ST_RUN_INSERT];
    char started[32], host[256];
    struct tm tm;
    time_t now = time(NULL);

    if (r->run_id >= 0) {
        set_err(r, "begin run: run %lld is still in progress", (long long)r->run_id);
        return -1;
    }
    if (gmtime_r(&now, &tm) == NULL || strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        started[0] = '\0';
    if (gethostname(host, sizeof host) != 0)
        host[0] = '\0';
    host[sizeof host - 1] = '\0';

    if (step(r, ST_BEGIN, "begin run") != 0)
        return -1;
    bind_text(st, 1, info->scenario);
    bind_text(st, 2, info->variant_label);
    /* A seed >= 2^63 is stored as its two's-complement int64. */
    sqlite3_bind_int64(st, 3, (sqlite3_int64)info->seed);
    sqlite3_bind_int(st, 4, info->rep);
    bind_text(st, 5, started[0] ? started : NULL);
    bind_text(st, 6, info->scenario_hash);
    bind_text(st, 7, host[0] ? host : NULL);
    /* NULL id: SQLite picks max(id) + 1, as for any INTEGER PRIMARY KEY. */
    if (info->id > 0)
        sqlite3_bind_int64(st, 8, info->id);
    else
        sqlite3_bind_null(st, 8);
    if (step(r, ST_RUN_INSERT, "insert run") != 0) {
        rollback(r);
        return -1;
    }
    r->run_id = sqlite3_last_insert_rowid(r->db);
    r->npend = 0;
    r->names_len = 0;
    clock_gettime(CLOCK_MONOTONIC, &r->run_t0);
    return r->run_id;
}

int rec_param(struct rec *r, const char *key, const char *value)
{
    sqlite3_stmt *st = r->st[ST_PARAM];

    if (need_run(r, "insert param") != 0)
        return -1;
    sqlite3_bind_int64(st, 1, r->run_id);
    bind_text(st, 2, key);
    bind_text(st, 3, value);
    return step(r, ST_PARAM, "insert param");
}

int rec_interval(struct rec *r, int flow, double t_start, double t_end, uint64_t bytes, double bits_per_s)
{
    sqlite3_stmt *st = r->st[ST_INTERVAL];

    if (need_run(r, "insert interval") != 0)
        return -1;
    sqlite3_bind_int64(st, 1, r->run_id);
    sqlite3_bind_int(st, 2, flow);
    sqlite3_bind_double(st, 3, t_start);
    sqlite3_bind_double(st, 4, t_end);
    sqlite3_bind_int64(st, 5, (sqlite3_int64)bytes);
    sqlite3_bind_double(st, 6, bits_per_s);
    return step(r, ST_INTERVAL, "insert interval");
}

int rec_series(struct rec *r, const char *name, double t, double value)
{
    sqlite3_stmt *st = r->st[ST_SERIES];

    if (need_run(r, "insert series") != 0)
        return -1;
    sqlite3_bind_int64(st, 1, r->run_id);
    bind_text(st, 2, name);
    sqlite3_bind_double(st, 3, t);
    sqlite3_bind_double(st, 4, value);
    return step(r, ST_SERIES, "insert series");
}

/* The pending counters into the table: a full batch in one statement,
 * fewer one by one (the run's last). */
static int flush_counters(struct rec *r)
{
    int rc = 0, k = 0;
    sqlite3_stmt *st = r->st[r->npend == COUNTER_BATCH ? ST_COUNTERS : ST_COUNTER];

    sqlite3_bind_int64(st, 1, r->run_id);
    for (int n = r->npend == COUNTER_BATCH ? COUNTER_BATCH : 1; k < r->npend && rc == 0;) {
        for (int j = 0; j < n; j++, k++) {
            bind_text(st, 3 * j + 2, r->names + r->pend[k].name);
            sqlite3_bind_int64(st, 3 * j + 3, (sqlite3_int64)r->pend[k].value);
            sqlite3_bind_int(st, 3 * j + 4, r->pend[k].is_drop);
        }
        rc = step(r, n > 1 ? ST_COUNTERS : ST_COUNTER, "insert counter");
    }
    r->npend = 0;
    r->names_len = 0;
    return rc;
}

int rec_counter(struct rec *r, const char *name, uint64_t value, bool is_drop)
{
    size_t n = strlen(name) + 1;

    if (need_run(r, "insert counter") != 0)
        return -1;
    if (r->names_len + n > r->names_cap) {
        size_t cap = r->names_cap ? 2 * r->names_cap : 4096;
        char *p;
        while (cap < r->names_len + n)
            cap *= 2;
        if (!(p = realloc(r->names, cap))) {
            set_err(r, "insert counter: out of memory");
            return -1;
        }
        r->names = p;
        r->names_cap = cap;
    }
    memcpy(r->names + r->names_len, name, n);
    r->pend[r->npend].name = r->names_len;
    r->pend[r->npend].value = (int64_t)value;
    r->pend[r->npend++].is_drop = is_drop;
    r->names_len += n;
    return r->npend == COUNTER_BATCH ? flush_counters(r) : 0;
}

int rec_profile(struct rec *r, const char *host, int cpu, const char *symbol, double cpu_ns, uint64_t calls)
{
    sqlite3_stmt *st = r->st[ST_PROFILE];

    if (need_run(r, "insert profile") != 0)
        return -1;
    sqlite3_bind_int64(st, 1, r->run_id);
    bind_text(st, 2, host);
    if (cpu >= 0)
        sqlite3_bind_int(st, 3, cpu);
    else
        sqlite3_bind_null(st, 3);
    bind_text(st, 4, symbol);
    sqlite3_bind_double(st, 5, cpu_ns);
    sqlite3_bind_int64(st, 6, (sqlite3_int64)calls);
    return step(r, ST_PROFILE, "insert profile");
}

/*
 * Writes the final state of the open run and commits. events < 0 and a
 * NaN sim_s store NULL (unknown, as when rec_close ends the run). If COMMIT fails the
 * transaction is rolled back: the run is lost, as if the process had died.
 */
static int run_finish(struct rec *r, const char *status, double wall_s, int64_t events, double sim_s,
                      const char *error)
{
    sqlite3_stmt *st = r->st[ST_RUN_END];

    if (r->npend && flush_counters(r) != 0 && r->run_id < 0)
        return -1;               /* SQLite rolled the run back */
    bind_text(st, 1, status);
    sqlite3_bind_double(st, 2, wall_s);
    if (events >= 0)
        sqlite3_bind_int64(st, 3, events);
    else
        sqlite3_bind_null(st, 3);
    if (isnan(sim_s))
        sqlite3_bind_null(st, 4);
    else
        sqlite3_bind_double(st, 4, sim_s);
    bind_text(st, 5, error);
    sqlite3_bind_int64(st, 6, r->run_id);
    if (step(r, ST_RUN_END, "end run") != 0 || step(r, ST_COMMIT, "commit run") != 0) {
        rollback(r);
        r->run_id = -1;
        return -1;
    }
    r->run_id = -1;
    return 0;
}

int rec_run_end(struct rec *r, const char *status, double wall_s, uint64_t events, double sim_s, const char *error)
{
    if (need_run(r, "end run") != 0)
        return -1;
    if (!status || (strcmp(status, "complete") != 0 && strcmp(status, "interrupted") != 0 &&
                    strcmp(status, "failed") != 0)) {
        /* The run stays open: the caller may end it again properly. */
        set_err(r, "end run: bad status '%s' (complete, interrupted or failed)", status ? status : "(null)");
        return -1;
    }
    return run_finish(r, status, wall_s, (int64_t)(events > INT64_MAX ? INT64_MAX : events), sim_s, error);
}

const char *rec_errmsg(const struct rec *r)
{
    return r->errmsg;
}

int rec_note_run(struct rec *r, int64_t id, const char *error, const char *key, const char *value)
{
    sqlite3_stmt *st = NULL;
    int rc = SQLITE_ERROR;

    if (need_no_run(r, "note run") != 0)
        return -1;
    if (sqlite3_exec(r->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        goto out;
    if (sqlite3_prepare_v2(r->db, "UPDATE run SET error = ?1 WHERE id = ?2", -1, &st, NULL) != SQLITE_OK)
        goto out;
    bind_text(st, 1, error);
    sqlite3_bind_int64(st, 2, id);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    st = NULL;
    if (rc != SQLITE_DONE || sqlite3_changes(r->db) != 1) {
        rc = rc == SQLITE_DONE ? SQLITE_NOTFOUND : rc;
        goto out;
    }
    rc = SQLITE_DONE;
    if (key) {
        sqlite3_stmt *p = r->st[ST_PARAM];
        sqlite3_bind_int64(p, 1, id);
        bind_text(p, 2, key);
        bind_text(p, 3, value);
        rc = sqlite3_step(p);
        sqlite3_reset(p);
    }
    if (rc == SQLITE_DONE && sqlite3_exec(r->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        rc = SQLITE_ERROR;
out:
    if (rc != SQLITE_DONE)
        set_err(r, "note run: %s", rc == SQLITE_NOTFOUND ? "no such run" : sqlite3_errmsg(r->db));
    sqlite3_finalize(st);
    rollback(r);
    return rc == SQLITE_DONE ? 0 : -1;
}

const char *rec_attach_name(const struct rec *r)
{
    return r->name;
}

struct sqlite3 *rec_connection(struct rec *r, const char *what)
{
    return need_no_run(r, what) == 0 ? r->db : NULL;
}

void rec_set_error(struct rec *r, const char *fmt, ...)
{
    char msg[sizeof r->errmsg];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    set_err(r, "%s", msg);
}

void rec_close(struct rec *r)
{
    if (!r)
        return;
    if (r->run_id >= 0)
        run_finish(r, "interrupted", elapsed_since(&r->run_t0), -1, NAN,
                   "results database closed before the run ended");
    rec_free(r);
}
