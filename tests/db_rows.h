/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * db_rows.h - a query's rows as one string, for the database tests:
 * columns joined by '|', rows ended by '\n', NULL as "NULL", REAL with
 * %.17g (so equal strings mean equal values, bit for bit).
 */
#ifndef NETSIM_TESTS_DB_ROWS_H
#define NETSIM_TESTS_DB_ROWS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>

static inline char *db_query_rows(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int rc;

    assert_non_null(f);
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        fail_msg("%s: %s", sql, sqlite3_errmsg(db));
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        for (int i = 0; i < sqlite3_column_count(st); i++) {
            if (i)
                fputc('|', f);
            switch (sqlite3_column_type(st, i)) {
            case SQLITE_NULL: fputs("NULL", f); break;
            case SQLITE_INTEGER: fprintf(f, "%lld", (long long)sqlite3_column_int64(st, i)); break;
            case SQLITE_FLOAT: fprintf(f, "%.17g", sqlite3_column_double(st, i)); break;
            default: fputs((const char *)sqlite3_column_text(st, i), f); break;
            }
        }
        fputc('\n', f);
    }
    assert_int_equal(rc, SQLITE_DONE);
    sqlite3_finalize(st);
    fclose(f);
    return buf;
}

#endif
