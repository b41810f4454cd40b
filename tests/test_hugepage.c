/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_hugepage.c - a run's heap in huge pages (sim/hugepage.c): the heap
 * grows by the size asked at once and that range is marked for huge pages
 * (VmFlags "hg" in /proc/self/smaps), memory from malloc comes from it
 * (the next small block too), and where address space is limited, or
 * under the sanitizers, nothing is taken. Each case runs in a child of
 * its own, since malloc's state is the process's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/hugepage.h"

#define MIB ((size_t)1 << 20)

static int in_child(int (*f)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        _exit(f());
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 99;
}

/* Bytes of [lo, lo + 64 MiB) marked MADV_HUGEPAGE, and the start of the
 * first marked mapping there (*first; 0 if none). */
static size_t marked_from(uintptr_t lo, uintptr_t *first)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    *first = 0;
    if (!f)
        return 0;
    char line[512];
    uintptr_t a = 0, b = 0;
    size_t marked = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long x, y;
        if (sscanf(line, "%lx-%lx ", &x, &y) == 2) {
            a = x;
            b = y;
        } else if (!strncmp(line, "VmFlags:", 8) && strstr(line, " hg") && b > lo && a <= lo + 64 * MIB) {
            marked += b - (a > lo ? a : lo);
            if (!*first)
                *first = a;
        }
    }
    fclose(f);
    return marked;
}

/* 0: the heap grew by the size asked, marked, and malloc hands it out. */
static int grows_and_marks(void)
{
    uintptr_t before = (uintptr_t)sbrk(0);
    hugepage_heap(64 * MIB);
    uintptr_t after = (uintptr_t)sbrk(0);
    if (after - before < 64 * MIB)
        return 1;
    /* the next block starts in huge pages, not in the 4 KiB ones below
     * them, which a small run would otherwise use first */
    char *small = malloc(100);
    /* a kernel without THP refuses the advice: then nothing is marked */
    uintptr_t first = 0;
    if (access("/sys/kernel/mm/transparent_hugepage", F_OK) == 0 &&
        (marked_from(before, &first) < 60 * MIB || (uintptr_t)small < first))
        return 2;
    /* a block malloc would have mapped apart, from the heap's top */
    char *p = malloc(8 * MIB);
    if (!p || (uintptr_t)p < before || (uintptr_t)p + 8 * MIB > after)
        return 3;
    free(p);
    if ((uintptr_t)sbrk(0) != after)   /* freed memory is kept: no trim */
        return 4;
    return 0;
}

/* 0: the heap did not move (a build or a machine where the call does
 * nothing). */
static int takes_nothing(void)
{
    uintptr_t before = (uintptr_t)sbrk(0);
    hugepage_heap(64 * MIB);
    return (uintptr_t)sbrk(0) - before < MIB ? 0 : 7;
}

/* 0: under a limit on address space the heap does not move. */
static int limited_takes_nothing(void)
{
    struct rlimit r;
    if (getrlimit(RLIMIT_AS, &r) < 0)
        return 5;
    if (r.rlim_cur == RLIM_INFINITY) {
        r.rlim_cur = 8192 * MIB;   /* a soft limit under the hard one is always allowed */
        if (setrlimit(RLIMIT_AS, &r) < 0)
            return 5;
    }
    if (hugepage_asks())
        return 6;
    return takes_nothing() ? 6 : 0;
}

static void test_heap_marked(void **st)
{
    (void)st;
    /* where nothing is asked (the sanitizers' allocator is not glibc's,
     * counted address space is not spent), nothing is taken */
    assert_int_equal(in_child(hugepage_asks() ? grows_and_marks : takes_nothing), 0);
}

static void test_limited(void **st)
{
    (void)st;
    assert_int_equal(in_child(limited_takes_nothing), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heap_marked),
        cmocka_unit_test(test_limited),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
