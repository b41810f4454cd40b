/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xalloc.c - allocations that cannot fail silently (see xalloc.h).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/xalloc.h"

static _Noreturn void out_of_memory(size_t n, const char *file, int line)
{
    fprintf(stderr, "netsim: out of memory: %zu bytes could not be allocated (%s:%d)\n", n, file, line);
    exit(1);
}

void xoom_at(const char *file, int line)
{
    fprintf(stderr, "netsim: out of memory (%s:%d)\n", file, line);
    exit(1);
}

void *xmalloc_at(size_t n, const char *file, int line)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory(n, file, line);
    return p;
}

void *xcalloc_at(size_t k, size_t n, const char *file, int line)
{
    void *p = calloc(k ? k : 1, n ? n : 1);
    if (!p)
        out_of_memory(n && k > SIZE_MAX / n ? SIZE_MAX : k * n, file, line);
    return p;
}

void *xrealloc_at(void *p, size_t n, const char *file, int line)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory(n, file, line);
    return q;
}

char *xstrdup_at(const char *s, const char *file, int line)
{
    size_t n = strlen(s ? s : "") + 1;
    char *d = xmalloc_at(n, file, line);
    memcpy(d, s ? s : "", n);
    return d;
}

char *xstrndup_at(const char *s, size_t n, const char *file, int line)
{
    char *d = xmalloc_at(n + 1, file, line);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

void *xgrow_at(void *arr, size_t elem, size_t n, size_t *cap, size_t first, const char *file, int line)
{
    if (n < *cap)
        return arr;
    size_t want = *cap ? *cap : first;
    if (*cap && want > SIZE_MAX / 2 / elem)
        out_of_memory(SIZE_MAX, file, line);
    if (*cap)
        want *= 2;
    arr = xrealloc_at(arr, want * elem, file, line);
    *cap = want;
    return arr;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    char *s;
    va_start(ap, fmt);
    if (vasprintf(&s, fmt, ap) < 0)
        xoom();
    va_end(ap);
    return s;
}
