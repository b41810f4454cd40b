/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record_impl.h - what the two halves of the results database share:
 * record_open.c opens a file (schema checked, statements prepared as
 * first used),
 * record.c writes runs through those statements; not for other callers,
 * who use record.h.
 */
#ifndef NETSIM_OUT_RECORD_IMPL_H
#define NETSIM_OUT_RECORD_IMPL_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "sinks/record.h"

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
    ST_MESSAGE,
    ST_COUNTERS,                 /* COUNTER_BATCH rows at once */
    ST_PARAMS,                   /* PARAM_BATCH rows at once */
    ST_COUNT
};

/* Counters come by the thousand at the end of a run (38 a TCP flow), and
 * an insert statement costs as much again as its row: they are inserted
 * COUNTER_BATCH to a statement, in order, so their rowids are the same. */
#define COUNTER_BATCH 64
/* Parameters likewise: 15 a TCP flow, at the run's start. */
#define PARAM_BATCH 64
#define REC_NULL_STR ((size_t)-1)   /* a pending NULL value */

/* The strings of one kind of pending row, emptied when its rows are
 * inserted: each kind has its own, since a few parameters may wait while
 * thousands of counters come and go. */
struct rec_strs {
    char *p;
    size_t len, cap;
};

struct rec {
    sqlite3 *db;
    struct {
        int64_t value;
        int is_drop;
        size_t name;             /* offset in names */
    } pend[COUNTER_BATCH];       /* counters of the open run not yet inserted */
    int npend;
    struct {
        size_t key, value;       /* offsets in pnames, or REC_NULL_STR */
    } ppend[PARAM_BATCH];        /* parameters of the open run not yet inserted */
    int nppend;
    struct rec_strs names, pnames;   /* the pending counters' and parameters' strings */
    char *path;                  /* for messages */
    char *name;                  /* what SQLite opens, and ATTACH names */
    sqlite3_stmt *st[ST_COUNT];
    int64_t run_id;              /* -1 when no run is open */
    bool lost;                   /* an insert of the open run failed: the run is rolled back, errmsg says why */
    uint64_t limit;              /* a scratch database's size limit (bytes), for messages; 0 for a file */
    struct timespec run_t0;      /* monotonic clock at rec_run_begin */
    char errmsg[512];
};

/* Statement `which` of r, prepared the first time it is asked for; NULL
 * if it cannot be (sqlite3_errmsg(r->db) says why). */
sqlite3_stmt *rec_st(struct rec *r, enum rec_stmt which);
/* Finalizes the statements, closes the connection, frees r. */
void rec_free(struct rec *r);

#endif
