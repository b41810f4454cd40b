/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xalloc.h - the one answer to running out of memory: say what could not
 * be allocated, and where, and exit 1. A simulation cannot go on without
 * the memory it asked for, and a silent exit(1) or a NULL dereference
 * later hides why a run stopped. Every wall allocates through these,
 * the loader and the command line included: one policy, one message.
 */
#ifndef NETSIM_XALLOC_H
#define NETSIM_XALLOC_H

#include <stddef.h>

void *xmalloc_at(size_t n, const char *file, int line);
void *xcalloc_at(size_t k, size_t n, const char *file, int line);
void *xrealloc_at(void *p, size_t n, const char *file, int line);
char *xstrdup_at(const char *s, const char *file, int line);
/* The first n bytes of s (which need no NUL within them), NUL-terminated. */
char *xstrndup_at(const char *s, size_t n, const char *file, int line);
/* Room for one more element in a growable array of *n used and *cap
 * allocated, doubling from `first`; returns the (moved) array. */
void *xgrow_at(void *arr, size_t elem, size_t n, size_t *cap, size_t first, const char *file, int line);

/* Out of memory where an allocation was not ours to make (a library's,
 * vasprintf, open_memstream): the same message, and exit 1. */
_Noreturn void xoom_at(const char *file, int line);
#define xoom() xoom_at(__FILE__, __LINE__)

/* A formatted string in new memory (vasprintf), or the out-of-memory exit. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define xmalloc(n) xmalloc_at((n), __FILE__, __LINE__)
#define xcalloc(k, n) xcalloc_at((k), (n), __FILE__, __LINE__)
#define xrealloc(p, n) xrealloc_at((p), (n), __FILE__, __LINE__)
#define xstrdup(s) xstrdup_at((s), __FILE__, __LINE__)
#define xstrndup(s, n) xstrndup_at((s), (n), __FILE__, __LINE__)
#define xgrow(arr, elem, n, cap, first) xgrow_at((arr), (elem), (n), (cap), (first), __FILE__, __LINE__)

#endif
