/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hugepage.h - the memory of the process that runs a simulation, in huge pages
 * where the kernel gives them (see hugepage.c).
 */
#ifndef NETSIM_HUGEPAGE_H
#define NETSIM_HUGEPAGE_H

#include <stdbool.h>
#include <stddef.h>

/* A sanitizer's allocator replaces glibc's: nothing to ask of it. GCC
 * says so with __SANITIZE_ADDRESS__, clang with __has_feature. */
#if defined(__SANITIZE_ADDRESS__)
#define HUGEPAGE_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HUGEPAGE_SANITIZED 1
#endif
#endif
#ifndef HUGEPAGE_SANITIZED
#define HUGEPAGE_SANITIZED 0
#endif

/* Asks malloc to take the next `bytes` of its heap at once and the kernel
 * to back them with transparent huge pages (madvise MADV_HUGEPAGE), and
 * keeps malloc from handing memory back until exit. For the process that
 * runs one simulation (netsim run, a sweep's worker), before it builds the
 * world. Does nothing under a sanitizer, without glibc's malloc, or where
 * address space is counted (hugepage.c). */
void hugepage_heap(size_t bytes);
/* Whether hugepage_heap takes anything here: built for glibc's malloc,
 * without a limit on address space or strict overcommit. */
bool hugepage_asks(void);
/* What a run asks for: address space, not memory (1 GiB holds the
 * world of 40 000 TCP flows at full speed); a larger run goes on in
 * 4 KiB pages. */
#define HUGEPAGE_HEAP_BYTES ((size_t)1 << 30)

#endif
