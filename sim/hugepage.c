/*
 * hugepage.c - a simulation's heap in transparent huge pages (hugepage.h).
 *
 * A run touches its memory for the first time as it builds the world and
 * as its queues and scoreboards grow, and each 4 KiB page so touched costs
 * a page fault: about 10 us on a 2-core Debian VM (0.25 us per 4 KiB when
 * one fault maps a 2 MiB huge page). 1000 TCP flows took 6 350 faults, of
 * which 4 450 in their set-up, and tcp_drs's continuous run 8 380.
 *
 * glibc's malloc takes its heap from brk, in steps the size of the request
 * plus M_TOP_PAD, and gives its top back once it exceeds M_TRIM_THRESHOLD.
 * So: one step of `bytes`, marked MADV_HUGEPAGE (address space only: a
 * page is backed when first touched, as before, but 2 MiB at a time); no
 * trim, so that the range stays what was marked; and the large requests
 * that malloc would map one by one (M_MMAP_THRESHOLD, 128 KiB, growing:
 * the packet slabs, a receive queue's array) taken from it too. Past
 * `bytes` the heap grows in 4 KiB pages as before. The cost is resident
 * memory: the top huge page partly used, and what a run frees kept for it
 * (a mapped block went back to the kernel when freed): 1000 flows peaked
 * at 42 MB instead of 37, tcp_drs at 38.0 MB instead of 37.2.
 */#include "sim/hugepage.h"

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

#if defined(__GLIBC__) && defined(MADV_HUGEPAGE) && !HUGEPAGE_SANITIZED
/* Where address space is counted, nothing is taken: under
 * vm.overcommit_memory = 2 it counts against the commit limit whether
 * touched or not, and a limit on it (ulimit -v, -d) would be spent. */
static bool limited(void)
{
    struct rlimit r;
    if ((getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur != RLIM_INFINITY) ||
        (getrlimit(RLIMIT_DATA, &r) == 0 && r.rlim_cur != RLIM_INFINITY))
        return true;
    FILE *f = fopen("/proc/sys/vm/overcommit_memory", "r");
    int mode = 0;
    if (f) {
        if (fscanf(f, "%d", &mode) != 1)
            mode = 0;
        fclose(f);
    }
    return mode == 2;
}
#endif

void hugepage_heap(size_t bytes)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE) && !HUGEPAGE_SANITIZED
    if (limited() || !mallopt(M_TRIM_THRESHOLD, INT32_MAX) || !mallopt(M_MMAP_THRESHOLD, 32 << 20))
        return;
    char *before = sbrk(0);
    if (!mallopt(M_TOP_PAD, (int)(bytes < INT32_MAX ? bytes : INT32_MAX)))
        return;
    /* more than the heap's top can hold now, so that malloc must grow it;
     * volatile, or the compiler drops a malloc whose memory nobody uses */
    void *volatile p = malloc(HUGE_PAGE);
    mallopt(M_TOP_PAD, 128 << 10);    /* glibc's default again: later steps are small */
    char *after = sbrk(0);
    free(p);
    if (after == (char *)-1 || after <= before)
        return;
    uintptr_t lo = ((uintptr_t)before + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    uintptr_t hi = (uintptr_t)after & ~(uintptr_t)(HUGE_PAGE - 1);
    if (hi > lo)
        madvise((void *)lo, hi - lo, MADV_HUGEPAGE);   /* advice: failure leaves 4 KiB pages */
#else
    (void)bytes;
#endif
}
