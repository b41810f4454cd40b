/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hugepage.c - a simulation's heap in transparent huge pages (hugepage.h).
 *
 * A run touches its memory for the first time as it builds the world and
 * as its queues and scoreboards grow, and each 4 KiB page so touched costs
 * a page fault: about 10 us on a 2-core Debian VM (0.25 us per 4 KiB when
 * one fault maps a 2 MiB huge page). 1000 TCP flows took 6 350 faults, of
 * which 4 450 in their set-up, tcp_drs's continuous run 8 380, w1 635.
 *
 * glibc's malloc takes its heap from brk, in steps the size of the request
 * plus M_TOP_PAD, and gives its top back once it exceeds M_TRIM_THRESHOLD.
 * So: one step of `bytes`, marked MADV_HUGEPAGE (address space only: a
 * page is backed when first touched, as before, but 2 MiB at a time); no
 * trim, so that the range stays what was marked; and M_MMAP_THRESHOLD
 * (128 KiB, growing) raised, so that the request that grows the heap is
 * not mapped apart. Once the top holds `bytes`, malloc serves large
 * blocks (the packet slabs, a receive queue's array) from it, as it
 * serves any request the top can hold. Past `bytes` the heap grows in
 * 4 KiB pages as before. The faults fell to
 * 238, 233 and 219. The cost is resident memory: the top huge page
 * partly used, and what a run frees kept for it (a mapped block went back
 * to the kernel when freed): 1000 flows peaked at 43 MB instead of 37,
 * tcp_drs at 38.4 MB instead of 37.2.
 */
#include "sim/hugepage.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#define HUGE_PAGE (2u << 20)

/* Compiled in only where glibc's malloc is the allocator. */
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE) && !HUGEPAGE_SANITIZED
#define ASKS 1
/* The stretch below the first huge page, held for the process's life. */
static void *volatile stretch;
#else
#define ASKS 0
#endif

/* Where address space is counted, nothing is taken: under
 * vm.overcommit_memory = 2 it counts against the commit limit whether
 * touched or not, and a limit on it (ulimit -v, -d) would be spent. */
bool hugepage_asks(void)
{
    if (!ASKS)
        return false;
    struct rlimit r;
    if ((getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur != RLIM_INFINITY) ||
        (getrlimit(RLIMIT_DATA, &r) == 0 && r.rlim_cur != RLIM_INFINITY))
        return false;
    FILE *f = fopen("/proc/sys/vm/overcommit_memory", "r");
    int mode = 0;
    if (f) {
        if (fscanf(f, "%d", &mode) != 1)
            mode = 0;
        fclose(f);
    }
    return mode != 2;
}

void hugepage_heap(size_t bytes)
{
#if ASKS
    if (!hugepage_asks() || !mallopt(M_TRIM_THRESHOLD, INT32_MAX) || !mallopt(M_MMAP_THRESHOLD, 32 << 20))
        return;
    char *before = sbrk(0);
    if (!mallopt(M_TOP_PAD, (int)(bytes < INT32_MAX ? bytes : INT32_MAX)))
        return;
    /* more than the heap's top can hold now, so that malloc must grow it;
     * volatile, or the compiler drops a malloc whose memory nobody uses */
    void *volatile p = malloc(HUGE_PAGE);
    mallopt(M_TOP_PAD, 128 << 10);    /* glibc's default again: later steps are small */
    char *after = sbrk(0);
    uintptr_t top = (uintptr_t)p;   /* p came from the top's start, where it is again once freed */
    free(p);
    if (after == (char *)-1 || after <= before || top >= (uintptr_t)before)
        return;
    /* Growing, malloc wrote the new top's header just past p's block,
     * before any advice: that page is mapped 4 KiB, and the 2 MiB around
     * it can no longer be a huge page. The huge pages start past it. */
    uintptr_t lo = (top + HUGE_PAGE + 64 + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    uintptr_t hi = (uintptr_t)after & ~(uintptr_t)(HUGE_PAGE - 1);
    if (hi <= lo)
        return;
    madvise((void *)lo, hi - lo, MADV_HUGEPAGE);   /* advice: failure leaves 4 KiB pages */
    /* What lies below lo (2 to 4 MiB) would be 4 KiB pages, and a small
     * run would use them first (w1 took 400 of its faults there): that
     * stretch is taken, never touched and never freed, so that malloc's
     * next block starts at lo. A request of lo - top makes a block from
     * top - 16 (its header's place) to lo; if glibc laid blocks out
     * otherwise, some of the stretch would be used after all, and nothing
     * worse. */
    stretch = malloc(lo - top);
#else
    (void)bytes;
#endif
}
